export { toast } from './toast-store';
// The toaster itself is fetched on demand (toast-region.tsx); import it from './toaster' to render it directly.
export { loadToastRegion, preloadToastList, ToastRegion } from './toast-region';
