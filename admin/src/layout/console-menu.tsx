import { Menu, useTranslate } from 'react-admin';
import { screens } from '../coming-soon/screens';

/** Dashboard, users, plans, payments, analytics (still to come), models: the order of spec section 2; then the audit trail. */
export function ConsoleMenu() {
  const translate = useTranslate();
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItem name="users" />
      <Menu.ResourceItem name="plans" />
      <Menu.ResourceItem name="payments" />
      {screens.map(({ name, icon: Icon }) => (
        <Menu.Item key={name} to={`/${name}`} primaryText={translate(`resources.${name}.name`, { smart_count: 2 })} leftIcon={<Icon />} />
      ))}
      <Menu.ResourceItem name="models" />
      <Menu.ResourceItem name="audit" />
    </Menu>
  );
}
