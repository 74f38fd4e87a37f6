package dev.cabinet.http;

import java.io.IOException;
import java.util.concurrent.CompletionException;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.cabinet.erasure.ErasedSubjectException;
import dev.cabinet.eventlog.EventLogUnavailableException;
import dev.cabinet.table.TransientStoreErrors;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** Maps domain problems, security failures, framework HTTP errors and anything unexpected to problem responses. */
public class HttpProblemMapper {

    private static final Logger LOG = Logger.getLogger(HttpProblemMapper.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        return ProblemResponses.of(e, uri.getPath());
    }

    /** A command that would seal an erased person's data: they are gone for good. */
    @ServerExceptionMapper
    public Response erased(ErasedSubjectException e, UriInfo uri) {
        return ProblemResponses.of(Problems.gone(e.getMessage()), uri.getPath());
    }

    @ServerExceptionMapper({ UnauthorizedException.class, AuthenticationFailedException.class })
    public Response unauthorized(RuntimeException e, UriInfo uri) {
        return Response.fromResponse(ProblemResponses.of(401, Problems.TYPE_PREFIX + "unauthorized", "Unauthorized",
                "this request needs a valid bearer token", uri.getPath(), null))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return ProblemResponses.of(403, Problems.TYPE_PREFIX + "forbidden", "Forbidden",
                "the token's subject may not do this", uri.getPath(), null);
    }

    @ServerExceptionMapper
    public Response eventLogUnavailable(EventLogUnavailableException e, UriInfo uri) {
        LOG.warn(e.getMessage());
        return retryLater("event-log-unavailable", "Event log unavailable",
                "the event log did not answer, so nothing was changed; retry later", uri);
    }

    /**
     * The request's deadline passed with nothing sent to the log: the same answer as a store that timed out (a read
     * cannot be served, a command changed nothing), saying it was the deadline.
     */
    @ServerExceptionMapper
    public Response deadlinePassed(DeadlinePassedException e, UriInfo uri) {
        LOG.warnf("Deadline passed on %s: %s", uri.getPath(), e.getMessage());
        return retryLater("store-unavailable", "Store unavailable", e.getMessage()
                + ": what it waited for did not answer in time; nothing was changed, retry later", uri);
    }

    /** A command's own effect may be done, its event was not sent: the same request again completes it. */
    @ServerExceptionMapper
    public Response incomplete(IncompleteCommandException e, UriInfo uri) {
        LOG.warnf("Incomplete command on %s: %s", uri.getPath(), e.getMessage());
        return retryLater("incomplete", "Incomplete", e.getMessage(), uri);
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e, UriInfo uri) {
        if (e.getCause() instanceof JsonProcessingException) {
            return JsonProblemMapper.of((JsonProcessingException) e.getCause(), uri.getPath());
        }
        Response original = e.getResponse();
        int status = original.getStatus();
        Response.Status.Family family = Response.Status.Family.familyOf(status);
        if (family != Response.Status.Family.CLIENT_ERROR && family != Response.Status.Family.SERVER_ERROR) {
            return original;
        }
        String reason = original.getStatusInfo().getReasonPhrase();
        return ProblemResponses.of(status, Problems.TYPE_PREFIX + "http-" + status, reason,
                e.getMessage() != null && !e.getMessage().startsWith("HTTP ") ? e.getMessage() : reason, uri.getPath(),
                null);
    }

    /** A body that cannot even be read as what its content type says (a broken multipart stream). */
    @ServerExceptionMapper
    public Response unreadableBody(IOException e, UriInfo uri) {
        return ProblemResponses.of(400, Problems.TYPE_PREFIX + "unreadable-body", "Unreadable body",
                "the request body could not be read: " + e.getMessage(), uri.getPath(), null);
    }

    /**
     * The store throttled, timed out or failed on its side: nothing was decided, the client may retry. A refused IAM
     * permission is the operators' to fix: the answer says only that a permission is missing (which one, on what, is
     * in the error StoreCallMeter logged for DynamoDB, and logged here for another service: KMS, S3), and carries no
     * Retry-After.
     */
    @ServerExceptionMapper
    public Response store(SdkException e, UriInfo uri) {
        if (TransientStoreErrors.isAccessDenied(e)) {
            if (!(e instanceof DynamoDbException)) {
                LOG.errorf("Missing permission on %s: %s refused a call to this instance; grant it to the instance's "
                        + "IAM role (deploy/iam) or the key's policy. It said: %s", uri.getPath(), service(e),
                        e.getMessage());
            }
            return ProblemResponses.of(503, Problems.TYPE_PREFIX + "missing-permission", "Missing permission",
                    "the service lacks a permission it needs for this request; its operators have been told",
                    uri.getPath(), null);
        }
        if (!TransientStoreErrors.isTransient(e)) {
            return unexpected(e, uri);
        }
        LOG.warnf("Store unavailable on %s: %s", uri.getPath(), e.getMessage());
        return retryLater("store-unavailable", "Store unavailable",
                "the table did not answer in time; nothing was changed, retry later", uri);
    }

    private static String service(SdkException e) {
        return e instanceof AwsServiceException aws && aws.awsErrorDetails() != null
                && aws.awsErrorDetails().serviceName() != null ? aws.awsErrorDetails().serviceName() : "AWS";
    }

    /** A 503 whose cause passes by itself: the client may retry the same request after a few seconds. */
    private static Response retryLater(String type, String title, String detail, UriInfo uri) {
        return Response.fromResponse(ProblemResponses.of(503, Problems.TYPE_PREFIX + type, title, detail,
                uri.getPath(), null))
                .header(HttpHeaders.RETRY_AFTER, "5")
                .build();
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e, UriInfo uri) {
        if (e instanceof CompletionException && e.getCause() instanceof SdkException store) {
            return store(store, uri); // a blocking operator job's join()
        }
        LOG.errorf(e, "Unexpected error on %s", uri.getPath());
        return ProblemResponses.of(500, Problems.TYPE_PREFIX + "internal", "Internal error",
                "an unexpected error occurred; it has been logged", uri.getPath(), null);
    }
}
