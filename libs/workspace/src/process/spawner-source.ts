/**
 * The spawner: a small Node process that forks the commands, so that a fork costs its few megabytes of
 * page tables instead of the service's (whose heap may hold an embedded database). It runs this source
 * with `node -e` (no file to find, built or not) and speaks over its IPC channel:
 *
 *   service → spawner  { t: 'spawn', id, file, args, cwd, stdin }
 *   spawner → service  { t: 'ready' } | { t: 'spawned', id, pid, identity } | { t: 'failed', id, message } | { t: 'exit', id, code, signal }
 *
 * Output does not pass through it: it listens on a unix socket in a private directory, the service keeps
 * connections open to it in advance, and each command gets three of them (two without stdin, which then
 * reads /dev/null), in connection order on both sides, as its stdin, stdout and stderr; the spawner closes its ends at once, never reading them, so the
 * command writes straight to the service. It reaps the leaders and reports their exit. When the service
 * goes (its channel closes, even after a SIGKILL) it SIGKILLs every group it started, then exits.
 */
export const SPAWNER_SOURCE = String.raw`'use strict';
const net = require('node:net');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [socketPath, marker] = process.argv.slice(1);
const accepted = [];
const waiting = [];
const live = new Map();
let boot = null;
try { boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(); } catch {}
function identity(pid) {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
    return boot ? boot + ':' + stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] : null;
  } catch { return null; }
}
// A send racing the service's exit fails with EPIPE: the callback takes it, where an 'error' event would crash.
const send = (m) => { if (process.connected) process.send(m, () => {}); };
function launch(m, ends) {
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: { ...process.env, PWD: m.cwd, [marker]: m.id }, detached: true, stdio: m.stdin ? ends : ['ignore', ...ends] });
  } catch (error) {
    for (const end of ends) end.destroy();
    return send({ t: 'failed', id: m.id, message: String(error && error.message) });
  }
  for (const end of ends) end.destroy();
  if (child.pid === undefined) return child.once('error', (error) => send({ t: 'failed', id: m.id, message: error.message }));
  live.set(m.id, child.pid);
  send({ t: 'spawned', id: m.id, pid: child.pid, identity: identity(child.pid) });
  child.once('exit', (code, signal) => {
    live.delete(m.id);
    send({ t: 'exit', id: m.id, code, signal });
  });
}
function flush() {
  while (waiting.length > 0 && accepted.length >= (waiting[0].stdin ? 3 : 2)) { const m = waiting.shift(); launch(m, accepted.splice(0, m.stdin ? 3 : 2)); }
}
const server = net.createServer({ pauseOnConnect: true }, (end) => { accepted.push(end); flush(); });
process.on('message', (m) => { if (m && m.t === 'spawn') { waiting.push(m); flush(); } });
process.on('disconnect', () => {
  for (const pid of live.values()) { try { process.kill(-pid, 'SIGKILL'); } catch {} }
  process.exit(0);
});
server.listen(socketPath, () => send({ t: 'ready' }));
`;
