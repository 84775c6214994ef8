import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  transpilePackages: ['@racelab/contracts', '@racelab/engine'],
  // Next copies the body of every request its proxy (proxy.ts) sees, before the route runs. The
  // pages it sees take no body, so keep that copy small; /api/graphql is not seen and caps its own.
  experimental: { proxyClientMaxBodySize: 64 * 1024 },
  // `next build` would type-check the dashboard again (about 10 s of a first `npm start` on 2 cores). It is
  // safe to skip only because `npm test` type-checks apps/web (its `typecheck` script, under turbo) on
  // every change, so no type error reaches a build that skips the check.
  typescript: { ignoreBuildErrors: true },
};
export default nextConfig;
