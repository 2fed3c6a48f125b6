import { Notification } from 'react-admin';

/** Toasts sit top-right, as on the customer site (spec section 2, "Navigation"). */
export const TopRightNotification = () => <Notification anchorOrigin={{ vertical: 'top', horizontal: 'right' }} />;
