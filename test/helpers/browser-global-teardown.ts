import { shared } from './browser-global-setup';

export default async function browserGlobalTeardown(): Promise<void> {
  await Promise.all([shared.browser?.close(), shared.server?.stop()]);
}
