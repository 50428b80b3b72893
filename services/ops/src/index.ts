export { backupEventLog, manifestPath, eventLogPath, sha256, DATA_DIR_SECRETS, type BackupManifest } from './backup.js';
export { BackupSchedule, scheduledName } from './backup-schedule.js';
export { restoreBackup, RestoreRefused } from './restore.js';
export { verifyEventLog, verdict, type VerifyReport } from './verify.js';
export { acquireDataDirLock, dataDirInUse, lockPath, DataDirBusy } from './data-dir-lock.js';
export { createUser, resetPin, setWalletPassword, listUsers, AdminRefused, type AdminDeps } from './admin.js';
