package dev.cabinet.http;

import java.util.List;
import java.util.stream.Collectors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/** Maps request bodies that are not valid JSON, or not the expected shape, to a 400 problem. */
public class JsonProblemMapper {

    private static final String TYPE = Problems.TYPE_PREFIX + "malformed-json";

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, UriInfo uri) {
        return of(e, uri.getPath());
    }

    /** Replaces the framework's own mapper for this subtype, whose body is not a problem document. */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return of(e, uri.getPath());
    }

    /** The problem for a body Jackson could not read; also used for the framework's wrapped reader failures. */
    static Response of(JsonProcessingException e, String path) {
        if (!(e instanceof JsonMappingException) || e instanceof JsonParseException) {
            return ProblemResponses.of(400, TYPE, "Malformed JSON", "the request body is not valid JSON", path, null);
        }
        return mapping((JsonMappingException) e, path);
    }

    private static Response mapping(JsonMappingException e, String path) {
        String field = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
        String message = e instanceof UnrecognizedPropertyException ? "is not a known field" : "has the wrong type or shape";
        if (field.isEmpty()) {
            return ProblemResponses.of(400, TYPE, "Malformed JSON", "the request body does not have the expected shape",
                    path, null);
        }
        return ProblemResponses.of(400, TYPE, "Malformed JSON", field + " " + message, path,
                List.of(new Problem.FieldError(field, message)));
    }
}
