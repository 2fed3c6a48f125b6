/** Console labels. Resource labels go under `resources.<name>.*`, as react-admin expects. */
export const en = {
  meshwork: {
    dashboard: {
      heading: 'Meshwork staff console',
      placeholder: 'This is the staff console placeholder. Users, plans, payments, analytics and models will appear here.',
    },
  },
};
