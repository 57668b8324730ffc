import { ApiError } from '#core/platform/errors';

/** The ApiError a promise rejects with; fails the test if it resolves or throws anything else. */
export async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an ApiError, but it succeeded');
}
