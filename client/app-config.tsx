import { createContext, useContext } from 'react';

/**
 * Values the server decides at run time (environment, clock) that pages render. The server
 * serialises them into the page (`#app-config`); the hydration entry reads them back, so that
 * both sides render the same HTML.
 */
export interface AppConfig {
  siteUrl: string;
  bookingUrl: string;
  year: number;
}

const AppConfigContext = createContext<AppConfig | null>(null);
export const AppConfigProvider = AppConfigContext.Provider;

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig needs an AppConfigProvider');
  return config;
}
