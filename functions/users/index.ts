import { lambdaHandler } from '#core/adapters/lambda-handler';
import { sesMailer } from '#core/adapters/mailer/ses-mailer';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { usersFunction } from './definition.ts';

export const handler = withSecrets(usersFunction, lambdaHandler(usersFunction, { mailer: sesMailer }));
