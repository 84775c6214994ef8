import type { NextConfig } from 'next';

const nextConfig: NextConfig = { transpilePackages: ['@racelab/engine'] };
export default nextConfig;
