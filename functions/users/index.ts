import { lambdaHandler } from '#core/adapters/lambda-handler';
import { sesMailer } from '#core/adapters/mailer/ses-mailer';
import { usersFunction } from './definition.ts';

export const handler = lambdaHandler(usersFunction, { mailer: sesMailer });
