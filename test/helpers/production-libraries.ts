/*
 * Every test file runs its libraries in the mode the product runs them in. The server sets
 * NODE_ENV to production before anything loads (server/production-default.ts), so there React,
 * Express and styled-components run their production builds; jest would set it to "test", which
 * loads React's development build: another renderer, with checks of its own on every element,
 * that made the apps tests start render their pages far slower than the server does. What that
 * build alone would catch (a list without keys, an unknown attribute) is checked once, on every
 * page: test/integration/react-development-warnings.test.ts.
 */
process.env.NODE_ENV = 'production';
