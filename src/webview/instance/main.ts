/**
 * Entry point of the Instance panel webview (bundled to dist/webview/instance.js as a browser IIFE):
 * the shared start-up of ../boot with the Instance protocol and view.
 */
import { parseToInstanceWebview, type FromInstanceWebview, type InstanceState } from '../../shared/instanceProtocol';
import { bootWebview } from '../boot';
import { createInstanceView } from './renderInstance';

bootWebview<InstanceState, FromInstanceWebview>({ rootId: 'instance-root', name: 'Instance', parse: parseToInstanceWebview, create: createInstanceView });
