import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * Where the tests find the project, and what every test's app and server share. Kept apart from
 * test-app.ts, which loads the whole app: a test file that only starts the built server or runs an
 * ops command needs these, not the app's modules loaded again in its own module registry.
 */

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLIENT_DIR = path.join(ROOT, 'dist', 'client');
/**
 * Where the apps and servers tests start keep their compressed pages (PAGE_CACHE_DIR): the same
 * pages, compressed once for the whole run instead of at every start.
 */
export const TEST_PAGE_CACHE = path.join(tmpdir(), 'citewise-test-page-cache');
export const TEST_SITE_URL = 'https://www.citewise.example';
