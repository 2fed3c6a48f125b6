import { localStorageStore } from 'react-admin';

/**
 * The console's preferences (locale, theme, list settings). Its own key prefix keeps it apart
 * from anything else on the origin; the direction wrapper reads the locale from it before
 * <Admin> renders.
 */
export const store = localStorageStore('1', 'MeshworkConsole');
