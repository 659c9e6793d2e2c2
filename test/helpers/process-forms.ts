import { formSession, type FormSession } from './forms';

/** GET a form page from a real server process, as a browser would, and keep what it posts back. */
export async function openProcessForm(baseUrl: string, path: string, clientAddress?: string): Promise<FormSession> {
  const page = await fetch(`${baseUrl}${path}`, { headers: clientAddress ? { 'X-Forwarded-For': clientAddress } : {} });
  if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}`);
  return formSession(await page.text(), page.headers.getSetCookie());
}

/**
 * A plain form post (no JavaScript) to a real server process; resolves with the status (303 is
 * the acknowledgement). `clientAddress` is what a trusted proxy would append to X-Forwarded-For.
 */
export async function postProcessForm(
  baseUrl: string,
  path: string,
  session: FormSession,
  values: Record<string, string>,
  clientAddress?: string,
): Promise<number> {
  return (await sendProcessForm(baseUrl, path, session, values, clientAddress)).status;
}

/** The same post, answered with where it sends the visitor (the thank-you page, with its check's token). */
export async function sendProcessForm(
  baseUrl: string,
  path: string,
  session: FormSession,
  values: Record<string, string>,
  clientAddress?: string,
): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: session.cookie,
      ...(clientAddress ? { 'X-Forwarded-For': clientAddress } : {}),
    },
    body: new URLSearchParams({ ...values, ...session.hidden }).toString(),
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}
