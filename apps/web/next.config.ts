import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  transpilePackages: ['@racelab/contracts', '@racelab/engine'],
  // Next copies the body of every request its proxy (proxy.ts) sees, before the route runs. The
  // pages it sees take no body, so keep that copy small; /api/graphql is not seen and caps its own.
  experimental: { proxyClientMaxBodySize: 64 * 1024 },
};
export default nextConfig;
