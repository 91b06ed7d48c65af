#!/usr/bin/env node
/** CDK entry point: `npx cdk synth [-c stage=prod -c corsOrigin=https://… -c alarmEmails=… -c sesFromEmail=… -c sesRegion=…]`; settings per stage in docs/deploy.md. */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/stacks';

buildApp(new App());
