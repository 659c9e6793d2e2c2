#!/usr/bin/env node
// `node scripts/loopback-only.mjs COMMAND [ARGS...]`: runs the command in a network namespace of
// its own whose only interface is loopback, so that nothing it does can send a packet beyond the
// machine, even code under test that is broken (the site check's refusals of private and public
// addresses are tested by pointing it at them). npm test runs jest through it; npm ci, and
// installing the test tools, run before, outside it. Where a namespace cannot be made (not Linux,
// not root, no unshare or ip), it says so and runs the command as it is.
import { spawnSync } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('Usage: node scripts/loopback-only.mjs COMMAND [ARGS...]');
  process.exit(2);
}

// Inside the namespace: loopback up, and proof that nothing else is reachable, before the command.
const inside = 'ip link set lo up && ! ip route get 192.0.2.1 >/dev/null 2>&1 && exec "$@"';
const probe = spawnSync('unshare', ['--net', 'sh', '-c', inside, 'sh', 'true'], { stdio: 'ignore' });
const isolated = process.platform === 'linux' && probe.status === 0;

let result;
if (isolated) {
  console.log(`Running ${command} in a network namespace with loopback only.`);
  result = spawnSync('unshare', ['--net', 'sh', '-c', inside, 'sh', command, ...args], { stdio: 'inherit' });
} else {
  console.warn(`No network namespace could be made here (it needs Linux, root, unshare and ip): ${command} runs on the machine's own network.`);
  result = spawnSync(command, args, { stdio: 'inherit' });
}
process.exit(result.status ?? 1);
