// Browser tests start Chromium and a server process; on a shared two-core machine that takes
// seconds, not the 5 s jest allows by default.
jest.setTimeout(60_000);
