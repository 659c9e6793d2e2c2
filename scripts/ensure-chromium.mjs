#!/usr/bin/env node
// The browser tests drive Debian's Chromium (browsers cannot be downloaded by npm here). On a
// fresh Debian machine where we are root, install it; anywhere else, say what is missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);

const canInstall = process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(`Chromium is not at ${chromium}. Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
console.log('Installing Chromium from Debian packages for the browser tests...');
execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
