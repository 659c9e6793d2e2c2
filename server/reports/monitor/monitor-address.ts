/** Where a client's monitoring report is read: its private address is this path, then its link's token. */
export const MONITOR_REPORT_PATH = '/monitor';
