import simpleRestProvider from 'ra-data-simple-rest';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

/** Every console resource is served by the api's admin-panel read models, behind the staff's bearer token. */
export const dataProvider = simpleRestProvider(`${API_BASE}/admin-panel`, authorizedFetch);
