// Moved to components/ (the actions page shows it too).
export { UpdateLockDialog } from '../../../components/update-lock-dialog';
