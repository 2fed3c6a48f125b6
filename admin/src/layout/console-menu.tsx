import { Menu } from 'react-admin';

/** Dashboard, users, plans, payments, analytics, models: the order of spec section 2; then the audit trail. */
export function ConsoleMenu() {
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItem name="users" />
      <Menu.ResourceItem name="plans" />
      <Menu.ResourceItem name="payments" />
      <Menu.ResourceItem name="analytics" />
      <Menu.ResourceItem name="models" />
      <Menu.ResourceItem name="audit" />
    </Menu>
  );
}
