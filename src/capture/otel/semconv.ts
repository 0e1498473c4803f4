/**
 * The OpenTelemetry attribute and event names the OTLP export sends, copied here rather than
 * imported from `@opentelemetry/semantic-conventions/incubating` at run time, as that package's
 * README asks of instrumentations: its incubating entry point may rename things in any minor
 * release. `semconv.test.ts` checks every name against the pinned devDependency, so a bump of the
 * package that changes one fails the suite instead of changing what is sent.
 *
 * The GenAI conventions are in development. These are the GenAI conventions of OpenTelemetry
 * semantic conventions v1.41.0 (the last release before they moved to their own repository), as
 * `@opentelemetry/semantic-conventions@1.45.0` exports them.
 */

/** The semantic-conventions release whose GenAI names are sent (README, "OTLP export"). */
export const GENAI_SEMCONV_VERSION = '1.41.0';
/** The schema URL of that release, set on the instrumentation scope of every span and log record. */
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${GENAI_SEMCONV_VERSION}`;
/** The `@opentelemetry/semantic-conventions` version the names below were checked against. */
export const SEMCONV_PACKAGE_VERSION = '1.45.0';

// GenAI (development)
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const ATTR_GEN_AI_REQUEST_TOP_K = 'gen_ai.request.top_k';
export const ATTR_GEN_AI_DATA_SOURCE_ID = 'gen_ai.data_source.id';
export const ATTR_GEN_AI_RETRIEVAL_DOCUMENTS = 'gen_ai.retrieval.documents';
export const ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT = 'gen_ai.retrieval.query.text';
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const ATTR_GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const ATTR_GEN_AI_EVALUATION_NAME = 'gen_ai.evaluation.name';
export const ATTR_GEN_AI_EVALUATION_SCORE_LABEL = 'gen_ai.evaluation.score.label';
export const ATTR_GEN_AI_EVALUATION_SCORE_VALUE = 'gen_ai.evaluation.score.value';
export const ATTR_GEN_AI_EVALUATION_EXPLANATION = 'gen_ai.evaluation.explanation';
export const EVENT_GEN_AI_EVALUATION_RESULT = 'gen_ai.evaluation.result';
export const GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL = 'retrieval';
export const GEN_AI_OPERATION_NAME_VALUE_CHAT = 'chat';
export const GEN_AI_PROVIDER_NAME_VALUE_OPENAI = 'openai';

// General (error.type and http.* are stable; error.message is in development)
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_ERROR_MESSAGE = 'error.message';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_SERVICE_NAME = 'service.name';
