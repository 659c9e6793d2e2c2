import { startServerProcess } from '../test/helpers/server-process';
(async () => {
  const server = await startServerProcess();
  const html = await (await fetch(server.url + '/free-audit')).text();
  const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
  console.log(css.length);
  const rules = css.split('}').map((r) => r.trim()).filter(Boolean);
  const counts = new Map<string, number>();
  for (const r of rules) counts.set(r, (counts.get(r) ?? 0) + 1);
  console.log('rules', rules.length, 'distinct', counts.size);
  console.log(css.slice(0, 1500));
  await server.stop();
})();
