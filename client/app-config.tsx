import { createContext, useContext } from 'react';
import type { AppConfig } from '../shared/app-config';

const AppConfigContext = createContext<AppConfig | null>(null);
export const AppConfigProvider = AppConfigContext.Provider;

/** The run-time values (SITE_URL, BOOKING_URL, the year) the server rendered the page with. */
export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig needs an AppConfigProvider');
  return config;
}
