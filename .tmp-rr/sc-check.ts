import { launchBrowser, waitForHydration } from '../test/helpers/browser';
import { startServerProcess } from '../test/helpers/server-process';
(async () => {
  const server = await startServerProcess();
  const browser = await launchBrowser();
  for (const p of ['/', '/blog/what-is-llm-seo', '/free-audit']) {
    const page = await browser.newPage();
    await page.goto(server.url + p);
    const before = await page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.sheet?.cssRules.length ?? 0));
    await waitForHydration(page);
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.sheet?.cssRules.length ?? 0));
    console.log(p, before, after);
    await page.close();
  }
  await browser.close(); await server.stop();
})();
