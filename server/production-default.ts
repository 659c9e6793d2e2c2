// Imported first by server/index.ts: React and Express read NODE_ENV when they load, and a server
// started without it must still run their production builds.
process.env.NODE_ENV ??= 'production';
