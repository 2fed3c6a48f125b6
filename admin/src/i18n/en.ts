/**
 * Console labels in English. Resource labels go under `resources.<name>.*`, as react-admin
 * expects; the rest of the console's own words under `meshwork.*`.
 */
export const en = {
  meshwork: {
    locale: { en: 'English', fa: 'فارسی' },
    auth: {
      checking_session: 'Checking your session…',
      access_denied_title: 'Access Denied',
      access_denied: 'Access denied. Admin privileges required.',
      redirecting: 'Taking you to your dashboard…',
      go_to_dashboard: 'Go to your dashboard',
    },
    dashboard: {
      title: 'Admin dashboard',
      heading: 'Meshwork staff console',
      subtitle: 'Manage users, subscription plans, payments, analytics and AI models.',
      refresh: 'Refresh',
      quick_actions: 'Quick actions',
      stats: {
        total_users: 'Total users',
        active_users: 'Active users',
        inactive_users: 'Inactive users',
        load_failed: 'Failed to load dashboard statistics',
      },
      tiles: {
        users: 'Search, activate, deactivate and delete accounts.',
        plans: 'Subscription plans, prices and limits.',
        payments: 'Payments, refunds and exports.',
        analytics: 'Growth, revenue and model usage.',
        models: 'Upload AI models and choose which plans may use them.',
      },
    },
    coming_soon: {
      title: 'Coming soon',
      body: 'This page is not available yet. It will appear here in a coming release.',
      back: 'Back to the dashboard',
    },
  },
  resources: {
    users: {
      name: 'User |||| Users',
      show_title: 'User %{name}',
      fields: {
        id: 'ID',
        username: 'Username',
        email: 'Email',
        full_name: 'Full name',
        first_name: 'First name',
        last_name: 'Last name',
        subscription_plan: 'Plan',
        max_clients: 'Max clients',
        is_active: 'Status',
        created_at: 'Joined',
        last_login: 'Last login',
        actions: 'Actions',
        q: 'Search',
      },
      status: { active: 'Active', inactive: 'Inactive' },
      plans: { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' },
      never: 'Never',
      filters: { status: 'Status', all: 'All', active: 'Active', inactive: 'Inactive' },
      actions: {
        activate: 'Activate',
        deactivate: 'Deactivate',
        bulk_menu: 'Bulk actions',
        bulk_activate: 'Activate selected',
        bulk_deactivate: 'Deactivate selected',
        bulk_delete: 'Delete selected',
        back_to_dashboard: 'Back to dashboard',
        back_to_list: 'Back to users',
      },
      message: {
        delete_title: 'Delete user %{recordRepresentation}?',
        delete_content: 'This deletes the account and ends all its sessions. This action cannot be undone.',
        bulk_delete_title: 'Delete %{smart_count} user? |||| Delete %{smart_count} users?',
        bulk_delete_content:
          'This deletes the selected account and ends its sessions. This action cannot be undone. |||| This deletes the %{smart_count} selected accounts and ends their sessions. This action cannot be undone.',
      },
      notifications: {
        load_failed: 'Failed to load users',
        select_user: 'Please select at least one user first.',
        activated: 'User activated',
        deactivated: 'User deactivated',
        deleted: 'User deleted',
        activate_failed: 'Failed to activate the user',
        deactivate_failed: 'Failed to deactivate the user',
        delete_failed: 'Failed to delete the user',
        bulk_activated: '%{smart_count} user activated |||| %{smart_count} users activated',
        bulk_deactivated: '%{smart_count} user deactivated |||| %{smart_count} users deactivated',
        bulk_deleted: '%{smart_count} user deleted |||| %{smart_count} users deleted',
        bulk_update_failed: 'Failed to update the selected users',
        bulk_delete_failed: 'Failed to delete the selected users',
      },
    },
    // The screens below are not built yet; their names already serve the menu and the dashboard.
    plans: { name: 'Subscription plan |||| Subscription plans' },
    payments: { name: 'Payment |||| Payments' },
    analytics: { name: 'Analytics |||| Analytics' },
    models: { name: 'AI model |||| AI models' },
  },
};

/** The shape every other catalogue must match, key for key. */
export type ConsoleMessages = typeof en;
