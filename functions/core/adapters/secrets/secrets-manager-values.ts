import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** The current value of each secret, in the order of the ARNs, read in parallel. */
export const secretValuesOf = (client: SecretsManagerClient, arns: readonly string[]): Promise<string[]> =>
  Promise.all(
    arns.map(async (arn) => {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
      if (!SecretString) throw new Error(`The secret ${arn} holds no text.`);
      return SecretString;
    }),
  );
