#!/usr/bin/env node
// The tests need two programs that npm cannot install: Debian's Chromium (browser tests; browsers
// cannot be downloaded here) and a Java runtime (the W3C Nu HTML checker, vnu.jar). On a fresh
// Debian machine where we are root, install what is missing; anywhere else, say what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasJava = (() => {
  try {
    execSync('java -version', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const missing = [];
if (!existsSync(chromium)) missing.push('chromium');
if (!hasJava) missing.push('default-jre-headless');
if (missing.length === 0) process.exit(0);

const canInstall = process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(`The tests need: ${missing.join(', ')} (Debian/Ubuntu: apt-get install ${missing.join(' ')}). Set CHROMIUM_PATH if Chromium lives elsewhere.`);
  process.exit(1);
}
console.log(`Installing ${missing.join(', ')} from Debian packages for the tests...`);
execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, { stdio: 'inherit' });
