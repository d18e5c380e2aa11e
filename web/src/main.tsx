import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { startLive } from './api/live';
import { makeRouter } from './router';
import './tokens.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx is the answer (not found, forbidden, bad query): retrying cannot change it.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      placeholderData: (previous: unknown) => previous,
    },
  },
});
const router = makeRouter(queryClient);
startLive(queryClient);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
