/**
 * Values the server decides at run time (environment, clock) that pages render. The server
 * serialises them into the page (the APP_CONFIG_ELEMENT_ID element); the hydration entry reads
 * them back, so that both sides render the same HTML.
 */
export interface AppConfig {
  siteUrl: string;
  bookingUrl: string;
  year: number;
}

export const APP_CONFIG_ELEMENT_ID = 'app-config';
