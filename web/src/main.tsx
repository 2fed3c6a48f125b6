// First: schemas are built as their modules load, and must be built without eval.
import './app/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { installGlobalErrorToasts } from './app/global-error-toasts';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

installGlobalErrorToasts();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
