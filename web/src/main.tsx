import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { retryDelayOf, retryQuery } from './api/retry';
import { startLive } from './api/live';
import { makeRouter } from './router';
import './tokens.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: retryQuery,
      retryDelay: retryDelayOf,
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
