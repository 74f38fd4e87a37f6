package dev.cabinet.http;

import java.util.List;
import java.util.stream.Collectors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/** Maps request bodies that are not valid JSON, or not the expected shape, to a 400 problem. */
public class JsonProblemMapper {

    private static final String TYPE = Problems.TYPE_PREFIX + "malformed-json";

    @ServerExceptionMapper
    public Response parse(JsonParseException e, UriInfo uri) {
        return ProblemResponses.of(400, TYPE, "Malformed JSON", "the request body is not valid JSON", uri.getPath(), null);
    }

    @ServerExceptionMapper
    public Response mapping(JsonMappingException e, UriInfo uri) {
        String field = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
        String message = e instanceof UnrecognizedPropertyException ? "is not a known field" : "has the wrong type or shape";
        if (field.isEmpty()) {
            return ProblemResponses.of(400, TYPE, "Malformed JSON", "the request body does not have the expected shape",
                    uri.getPath(), null);
        }
        return ProblemResponses.of(400, TYPE, "Malformed JSON", field + " " + message, uri.getPath(),
                List.of(new Problem.FieldError(field, message)));
    }
}
