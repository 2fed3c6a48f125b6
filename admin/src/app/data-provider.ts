import simpleRestProvider from 'ra-data-simple-rest';

/** Every console resource is served by the api's admin-panel read models. */
export const dataProvider = simpleRestProvider('/api/v1/admin-panel');
