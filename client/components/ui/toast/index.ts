export { dismissToast, toast, TOAST_DURATION_MS, TOAST_LIMIT, type ToastOptions, type ToastVariant } from './toast-store';
export { preloadToastList, Toaster } from './toaster';
