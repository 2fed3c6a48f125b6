/** A user as the console's users resource serves it (spec section 3, "Admin user"). */
export interface AdminUser {
  id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  subscription_plan: string;
  max_clients: number;
  is_active: boolean;
  created_at: string;
  last_login: string | null;
}
