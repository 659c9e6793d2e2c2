#!/usr/bin/env node
// `node scripts/loopback-only.mjs COMMAND [ARGS...]`: runs the command in a network namespace of
// its own whose only interface is loopback, so that nothing it does can send a packet beyond the
// machine, even code under test that is broken (the site check's refusals of private and public
// addresses are tested by pointing it at them). npm test runs jest through it; npm ci, and
// installing the test tools, run before, outside it.
//
// The namespace is made by `unshare --net` as root, else by `unshare -rn` (a user namespace of its
// own first, which a user who is not root may make where the kernel allows it). Where neither can
// be made (not Linux, no unshare or ip, user namespaces turned off), it stops with one line and
// exit status 1 instead of running the command on the machine's own network. A developer on such
// a machine may run it anyway with ALLOW_OUTBOUND_TESTS=1, which CI never sets.
import { spawnSync } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('Usage: node scripts/loopback-only.mjs COMMAND [ARGS...]');
  process.exit(2);
}

// Inside the namespace: loopback up, and proof that nothing else is reachable, before the command.
const inside = 'ip link set lo up && ! ip route get 192.0.2.1 >/dev/null 2>&1 && exec "$@"';
const ways = [['--net'], ['--user', '--map-root-user', '--net']];

/** Why no namespace can be made here, or null when `way` makes one. */
function refusal(way) {
  const probe = spawnSync('unshare', [...way, 'sh', '-c', inside, 'sh', 'true'], { stdio: 'ignore' });
  if (probe.error?.code === 'ENOENT') return 'unshare (util-linux) is not on the PATH';
  if (probe.status === 127) return 'ip (iproute2) is not on the PATH';
  if (probe.status !== 0) return 'unshare may not make one (as root it needs --net, as another user unprivileged user namespaces)';
  return null;
}

let way;
let reason = 'network namespaces are Linux\'s';
if (process.platform === 'linux') {
  for (const candidate of ways) {
    reason = refusal(candidate);
    if (!reason) {
      way = candidate;
      break;
    }
  }
}

let result;
if (way) {
  console.log(`Running ${command} in a network namespace with loopback only.`);
  result = spawnSync('unshare', [...way, 'sh', '-c', inside, 'sh', command, ...args], { stdio: 'inherit' });
} else if (process.env.ALLOW_OUTBOUND_TESTS === '1') {
  console.warn(`No network namespace could be made here (${reason}): ALLOW_OUTBOUND_TESTS=1, so ${command} runs on the machine's own network.`);
  result = spawnSync(command, args, { stdio: 'inherit' });
} else {
  console.error(`No network namespace could be made here (${reason}), so ${command} was not run: set ALLOW_OUTBOUND_TESTS=1 to run it on the machine's own network (docs/testing.md).`);
  process.exit(1);
}
process.exit(result.status ?? 1);
