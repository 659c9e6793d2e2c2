export { dismissToast, toast, TOAST_DURATION_MS, TOAST_LIMIT, type ToastOptions, type ToastVariant } from './toast-store';
// The toaster itself is fetched on demand (toast-region.tsx); import it from './toaster' to render it directly.
export { preloadToastList, ToastRegion } from './toast-region';
