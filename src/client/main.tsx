import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge } from './bridge';
import './styles.css';

// A handle for end-to-end tests and debugging in the console.
(globalThis as { __nrmWorkbench?: unknown }).__nrmWorkbench = { bridge: getBridge() };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
