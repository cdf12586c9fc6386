import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge } from './bridge';
import './styles.css';

// A handle for the end-to-end tests and the browser bench, in a test build only
// (vite --mode testbuild; see vite.config.ts).
if (import.meta.env.MODE === 'testbuild')
  (globalThis as { __nrmWorkbench?: unknown }).__nrmWorkbench = { bridge: getBridge() };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
