/** The audit log, the corrected-bench export and the audit report renderings. */
export * from './auditLog';
export * from './drift';
export * from './exportBench';
export * from './report';
export * from './workspaceAudit';
