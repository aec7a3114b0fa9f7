import { AdminPage } from '../../features/admin/pages/admin-page';

/** /admin: the provider staff area (spec 3 §6 admin link; spec 1 §6–§7 login-as). */
export function AdminRoute() {
  return <AdminPage />;
}
