import { RouterProvider } from 'react-router';
import { ConnectivityBanners } from './platform/connectivity-banners';
import { SessionWatcher } from './platform/session-watcher';
import { AppProvider } from './provider';
import { router } from './router';

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
      <ConnectivityBanners />
      <SessionWatcher />
    </AppProvider>
  );
}
