import { parse } from 'node-html-parser';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { faq } from '../../shared/generated/home';
import { waitForHydration, watchConsole, type ConsoleRecord } from '../helpers/browser';
import { sharedBrowser, sharedSite } from '../helpers/shared-site';
import { serveUiKitFixture, type FixtureServer } from './fixtures/ui-kit-server';

/*
 * Toasts and tooltips are tested on a fixture page (test/browser/fixtures/ui-kit-fixture.tsx)
 * that renders the real components, bundled like the site and served under the site's CSP: no
 * route raises a toast on demand until the audit form posts with fetch, and nothing test-only
 * belongs in the production bundle. The accordion and the server HTML are tested on the site.
 * Time is Playwright's fake clock, frozen and advanced by the test, so no assertion races a timer.
 */

let fixture: FixtureServer;
const server = sharedSite();
let browser: Browser;

beforeAll(async () => {
  [fixture, browser] = await Promise.all([serveUiKitFixture(), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

const START = new Date('2026-03-02T09:00:00Z').getTime();

interface FixturePage {
  page: Page;
  consoleRecords: ConsoleRecord[];
  close(): Promise<void>;
}

async function openFixture(options: BrowserContextOptions = {}): Promise<FixturePage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, ...options });
  const page = await context.newPage();
  const consoleRecords = watchConsole(page);
  await page.clock.install({ time: START });
  await page.goto(fixture.url);
  await page.locator('#toast-default').waitFor();
  await page.waitForFunction(() => document.body.dataset.toastsReady === 'true' && document.body.dataset.tooltipsReady === 'true');
  // From here on time moves only when the test says so.
  await page.clock.pauseAt(START + 60_000);
  return { page, consoleRecords, close: () => context.close() };
}

const region = (page: Page) => page.locator('section[aria-label="Notifications alt+T"]');
const toasts = (page: Page) => region(page).locator('li');
const politeRegion = (page: Page) => region(page).locator('[aria-live="polite"]');
const assertiveRegion = (page: Page) => region(page).locator('[aria-live="assertive"]');
/** A spot with nothing under it, at every viewport the tests use. */
const moveAway = (page: Page) => page.mouse.move(200, 500);
/** Where an element rests: after its entrance animation, which runs on real time, not the fake clock. */
const box = async (locator: Locator) => {
  await locator.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
  const rect = await locator.boundingBox();
  if (!rect) throw new Error('element is not displayed');
  return rect;
};

describe('toasts', () => {
  it('appear bottom right, 356 px wide, with a close button, announced politely', async () => {
    const { page, consoleRecords, close } = await openFixture();
    await page.click('#toast-default');
    expect(await toasts(page).count()).toBe(1);
    const toast = toasts(page).first();
    expect(await toast.innerText()).toContain('Saved');
    const rect = await box(toast);
    expect(rect.width).toBe(356);
    expect(rect.x + rect.width).toBe(1280 - 32);
    expect(rect.y + rect.height).toBe(720 - 32);

    // The live regions carry the text for screen readers; the error one stays quiet.
    expect(await politeRegion(page).innerText()).toMatch(/Saved\s+Your changes were saved\./);
    expect(await assertiveRegion(page).innerText()).toBe('');
    const closeButton = toast.getByRole('button', { name: 'Close notification' });
    expect(await closeButton.evaluate((button) => {
      const id = button.getAttribute('aria-describedby') ?? '';
      return document.getElementById(id)?.textContent;
    })).toBe('SavedYour changes were saved.');

    await closeButton.click();
    expect(await toasts(page).count()).toBe(0);
    expect(await politeRegion(page).innerText()).toBe('');
    expect(consoleRecords).toEqual([]);
    await close();
  });

  it('leave after 4000 ms', async () => {
    const { page, close } = await openFixture();
    await page.click('#toast-default');
    await moveAway(page);
    await page.clock.runFor(3990);
    expect(await toasts(page).count()).toBe(1);
    await page.clock.runFor(20);
    expect(await toasts(page).count()).toBe(0);
    await close();
  });

  it('pause while the pointer is over them and resume with the time that was left', async () => {
    const { page, close } = await openFixture();
    await page.click('#toast-default');
    await moveAway(page);
    await page.clock.runFor(1000);
    await toasts(page).first().hover();
    await page.clock.runFor(10_000);
    expect(await toasts(page).count()).toBe(1);
    await moveAway(page);
    // 1000 ms ran before the pause: 3000 ms are left, not 4000.
    await page.clock.runFor(2990);
    expect(await toasts(page).count()).toBe(1);
    await page.clock.runFor(20);
    expect(await toasts(page).count()).toBe(0);
    await close();
  });

  it('pause while focus is inside the region, and Alt+T takes focus there and back', async () => {
    const { page, close } = await openFixture();
    await page.click('#toast-default');
    await moveAway(page);
    await page.locator('#tip-copy').focus();
    await page.keyboard.press('Alt+KeyT');
    expect(await region(page).evaluate((element) => element === document.activeElement)).toBe(true);
    await page.clock.runFor(10_000);
    expect(await toasts(page).count()).toBe(1);

    // Focus leaves: the clock runs again.
    await page.locator('#tip-book').focus();
    await page.clock.runFor(4010);
    expect(await toasts(page).count()).toBe(0);

    // With the keyboard alone: Alt+T, Tab to the close button, Enter; focus comes back.
    await page.click('#toast-destructive');
    await page.locator('#tip-copy').focus();
    await page.keyboard.press('Alt+KeyT');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close notification');
    await page.keyboard.press('Enter');
    expect(await toasts(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tip-copy');
    await close();
  });

  it('show at most three, newest nearest the corner, 14 px apart', async () => {
    const { page, close } = await openFixture();
    for (const id of ['#toast-default', '#toast-destructive', '#toast-success', '#toast-default']) await page.click(id);
    expect(await toasts(page).count()).toBe(3);
    expect(await toasts(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-variant')))).toEqual([
      'destructive',
      'success',
      'default',
    ]);
    const rects = await Promise.all([0, 1, 2].map((index) => box(toasts(page).nth(index))));
    const gaps = rects.slice(1).map((rect, index) => rect.y - (rects[index]!.y + rects[index]!.height));
    expect(gaps).toEqual([14, 14]);
    expect(rects[2]!.y + rects[2]!.height).toBe(720 - 32);
    await close();
  });

  it('go when swiped right past 20 px, and slide back when not', async () => {
    const { page, close } = await openFixture({ reducedMotion: 'reduce' });
    await page.click('#toast-default');
    const start = await box(toasts(page).first());
    const y = start.y + start.height / 2;
    const x = start.x + 40;

    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 15, y, { steps: 5 });
    expect((await box(toasts(page).first())).x).toBe(start.x + 15);
    await page.mouse.up();
    expect(await toasts(page).count()).toBe(1);
    expect((await box(toasts(page).first())).x).toBe(start.x);

    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 25, y, { steps: 5 });
    await page.mouse.up();
    expect(await toasts(page).count()).toBe(0);
    await close();
  });

  it('have a destructive style and interrupt through the assertive live region', async () => {
    const { page, close } = await openFixture();
    await page.click('#toast-destructive');
    const toast = toasts(page).first();
    expect(await toast.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(185, 28, 28)');
    expect(await toast.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(255, 255, 255)');
    expect(await assertiveRegion(page).innerText()).toMatch(/Error\s+There was an issue submitting your request\. Please try again\./);
    expect(await politeRegion(page).innerText()).toBe('');
    await close();
  });

  it('take the full width less 16 px margins on a small screen', async () => {
    const { page, close } = await openFixture({ viewport: { width: 360, height: 740 } });
    await page.click('#toast-default');
    const rect = await box(toasts(page).first());
    expect(rect.x).toBe(16);
    expect(rect.width).toBe(360 - 32);
    expect(rect.y + rect.height).toBe(740 - 16);
    await close();
  });

  it('animate in, except for visitors who asked for reduced motion', async () => {
    const animationOf = async (options: BrowserContextOptions) => {
      const { page, close } = await openFixture(options);
      await page.click('#toast-default');
      const name = await toasts(page).first().evaluate((element) => getComputedStyle(element).animationName);
      await close();
      return name;
    };
    expect(await animationOf({ reducedMotion: 'no-preference' })).not.toBe('none');
    expect(await animationOf({ reducedMotion: 'reduce' })).toBe('none');
  });

  const pagePaths = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);

  it('have their region and both live regions in the server HTML of every page, before any toast', async () => {
    for (const path of [...pagePaths, '/no-such-page']) {
      const response = await fetch(`${server.url}${path}`);
      const document = parse(await response.text());
      const section = document.querySelector('section[aria-label="Notifications alt+T"]');
      expect({ path, polite: section?.querySelector('[aria-live="polite"]')?.text }).toEqual({ path, polite: '' });
      expect({ path, assertive: section?.querySelector('[aria-live="assertive"]')?.text }).toEqual({ path, assertive: '' });
    }
  });
});

describe('tooltips', () => {
  const tooltipOf = (page: Page, triggerId: string) =>
    page.locator(`#${triggerId}`).evaluate((trigger) => {
      const ids = (trigger.getAttribute('aria-describedby') ?? '').split(' ');
      const tooltip = ids.map((id) => document.getElementById(id)).find((element) => element?.getAttribute('role') === 'tooltip');
      if (!tooltip) return null;
      const { top, left, right, width } = tooltip.getBoundingClientRect();
      return { text: tooltip.textContent, visible: width > 0 && getComputedStyle(tooltip).display !== 'none', ids, rect: { top, left, right } };
    });

  it('describe their trigger and open after 700 ms of hover, closing when the pointer leaves', async () => {
    const { page, consoleRecords, close } = await openFixture();
    const copy = await tooltipOf(page, 'tip-copy');
    expect(copy).toMatchObject({ text: 'Copies the sample to your clipboard', visible: false });
    // An existing description is kept beside the tooltip's.
    expect((await tooltipOf(page, 'tip-book'))?.ids[0]).toBe('book-note');

    await page.hover('#tip-copy');
    await page.clock.runFor(690);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    await page.clock.runFor(20);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);

    await moveAway(page);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    expect(consoleRecords).toEqual([]);
    await close();
  });

  it('open at once within 300 ms of another closing, and with the delay after that', async () => {
    const { page, close } = await openFixture();
    await page.hover('#tip-copy');
    await page.clock.runFor(700);
    await page.hover('#tip-book');
    expect((await tooltipOf(page, 'tip-book'))?.visible).toBe(true);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);

    await moveAway(page);
    await page.clock.runFor(250);
    await page.hover('#tip-copy');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);

    await moveAway(page);
    await page.clock.runFor(350);
    await page.hover('#tip-book');
    expect((await tooltipOf(page, 'tip-book'))?.visible).toBe(false);
    await page.clock.runFor(700);
    expect((await tooltipOf(page, 'tip-book'))?.visible).toBe(true);
    await close();
  });

  it('show on keyboard focus at once, hide on Escape and on blur, not on a click', async () => {
    const { page, close } = await openFixture();
    await page.locator('#toast-success').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tip-copy');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);
    await page.keyboard.press('Escape');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tip-copy');

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);
    await page.keyboard.press('Tab');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    expect((await tooltipOf(page, 'tip-book'))?.visible).toBe(true);

    // A click focuses the trigger but is no request for help: the press hides any tooltip.
    await moveAway(page);
    await page.clock.runFor(1000);
    await page.click('#tip-copy');
    await page.clock.runFor(1000);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    await close();
  });

  it('open and close with a touch on the trigger, and close with a touch elsewhere', async () => {
    const { page, close } = await openFixture({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 } });
    await page.tap('#tip-copy');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);
    await page.tap('#tip-copy');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    await page.tap('#tip-copy');
    await page.tap('#after');
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    // A touch on another trigger moves the tooltip there: one is open at a time.
    await page.tap('#tip-copy');
    await page.tap('#tip-book');
    expect((await tooltipOf(page, 'tip-book'))?.visible).toBe(true);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(false);
    await close();
  });

  it('open without moving anything and stay on screen, below a trigger at the top edge', async () => {
    const { page, close } = await openFixture({ viewport: { width: 360, height: 740 } });
    const layout = () =>
      page.evaluate(() => ({
        rects: ['tip-copy', 'tip-book', 'after', 'edge-trigger'].map((id) => {
          const rect = document.getElementById(id)?.getBoundingClientRect();
          return rect && [rect.x, rect.y, rect.width, rect.height];
        }),
        scrollWidth: document.documentElement.scrollWidth,
        scrollHeight: document.documentElement.scrollHeight,
      }));
    const before = await layout();
    await page.hover('#tip-copy');
    await page.clock.runFor(700);
    expect((await tooltipOf(page, 'tip-copy'))?.visible).toBe(true);
    expect(await layout()).toEqual(before);

    await page.locator('#tip-copy').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('edge-trigger');
    const edge = await tooltipOf(page, 'edge-trigger');
    const trigger = await box(page.locator('#edge-trigger'));
    expect(edge?.visible).toBe(true);
    expect(edge!.rect.top).toBeGreaterThanOrEqual(trigger.y + trigger.height);
    expect(edge!.rect.left).toBeGreaterThanOrEqual(0);
    expect(edge!.rect.right).toBeLessThanOrEqual(360);
    expect(await layout()).toEqual(before);
    await close();
  });
});

describe('FAQ accordion on the home page', () => {
  const answers = faq.items.map((item) => item.answer);

  async function openHome(options: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; questions: Locator; close(): Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    if (options.javaScriptEnabled !== false) await waitForHydration(page);
    return { page, questions: page.locator('#faq details > summary'), close: () => context.close() };
  }

  const opened = (questions: Locator) => questions.evaluateAll((summaries) => summaries.map((summary) => (summary.parentElement as HTMLDetailsElement).open));
  const answerVisible = (questions: Locator, index: number) => questions.nth(index).locator('xpath=following-sibling::*[1]').isVisible();
  const only = (index: number | null) => answers.map((_, position) => position === index);

  it('opens one item at a time, and the open one collapses again', async () => {
    const { page, questions, close } = await openHome();
    expect(await questions.count()).toBe(8);
    expect(await opened(questions)).toEqual(only(null));

    await questions.nth(0).click();
    expect(await opened(questions)).toEqual(only(0));
    expect(await answerVisible(questions, 0)).toBe(true);
    expect(await page.locator('#faq').innerText()).toContain(answers[0]);

    await questions.nth(3).click();
    expect(await opened(questions)).toEqual(only(3));
    expect(await answerVisible(questions, 0)).toBe(false);
    expect(await answerVisible(questions, 3)).toBe(true);

    await questions.nth(3).click();
    expect(await opened(questions)).toEqual(only(null));
    expect(await answerVisible(questions, 3)).toBe(false);
    await close();
  });

  it('toggles with Enter and Space, and Up, Down, Home and End move focus', async () => {
    const { page, questions, close } = await openHome();
    const focusedIndex = () => questions.evaluateAll((summaries) => summaries.findIndex((summary) => summary === document.activeElement));
    await questions.nth(0).focus();
    await page.keyboard.press('Enter');
    expect(await opened(questions)).toEqual(only(0));
    await page.keyboard.press('Enter');
    expect(await opened(questions)).toEqual(only(null));
    await page.keyboard.press('Space');
    expect(await opened(questions)).toEqual(only(0));

    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(1);
    await page.keyboard.press('Space');
    expect(await opened(questions)).toEqual(only(1));
    await page.keyboard.press('End');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('ArrowUp');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('Home');
    expect(await focusedIndex()).toBe(0);
    // Moving focus does not open or close anything.
    expect(await opened(questions)).toEqual(only(1));
    await close();
  });

  it('works without JavaScript: every answer is in the server HTML, and the browser opens one at a time', async () => {
    const { page, questions, close } = await openHome({ javaScriptEnabled: false });
    expect(await questions.count()).toBe(8);
    for (const [index, answer] of answers.entries()) {
      expect(await questions.nth(index).locator('xpath=following-sibling::*[1]').textContent()).toBe(answer);
    }
    await questions.nth(2).click();
    expect(await answerVisible(questions, 2)).toBe(true);
    await questions.nth(5).click();
    expect(await opened(questions)).toEqual(only(5));

    // The article that places an FAQ block too.
    await page.goto(`${server.url}/blog/surrey-electrical-safety-case-study`);
    const articleQuestions = page.locator('article details > summary');
    expect(await articleQuestions.count()).toBe(3);
    await articleQuestions.nth(1).click();
    expect(await articleQuestions.nth(1).locator('xpath=following-sibling::*[1]').isVisible()).toBe(true);
    expect((await articleQuestions.nth(1).locator('xpath=following-sibling::*[1]').innerText()).length).toBeGreaterThan(20);
    await close();
  });
});
