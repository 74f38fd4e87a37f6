package dev.cabinet.http;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.cabinet.table.query.InvalidQueryException;
import dev.cabinet.shared.InvalidIdException;

/** Maps every kind of invalid input to a 400 problem that names the offending field. */
public class ValidationProblemMapper {

    private static final String TYPE = Problems.TYPE_PREFIX + "validation";

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e, UriInfo uri) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new Problem.FieldError(fieldOf(v), v.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .collect(Collectors.toList());
        String detail = errors.stream().map(f -> f.field() + " " + f.message()).collect(Collectors.joining("; "));
        return ProblemResponses.of(400, TYPE, "Invalid request", detail, uri.getPath(), errors);
    }

    @ServerExceptionMapper
    public Response invalidId(InvalidIdException e, UriInfo uri) {
        return ProblemResponses.of(400, TYPE, "Invalid request", e.getMessage(), uri.getPath(),
                List.of(new Problem.FieldError(e.field(), e.reason())));
    }

    /** A limit or cursor the query layer refused: the same 400 as any other invalid parameter. */
    @ServerExceptionMapper
    public Response invalidQuery(InvalidQueryException e, UriInfo uri) {
        return ProblemResponses.of(400, TYPE, "Invalid request", e.getMessage(), uri.getPath(),
                List.of(new Problem.FieldError(e.field(), e.reason())));
    }

    /** The field a violation is about: the bean property, or the method parameter (path, query or body). */
    static String fieldOf(ConstraintViolation<?> violation) {
        List<Path.Node> nodes = StreamSupport.stream(violation.getPropertyPath().spliterator(), false)
                .collect(Collectors.toList());
        List<String> properties = nodes.stream()
                .filter(n -> n.getKind() == ElementKind.PROPERTY || n.getKind() == ElementKind.CONTAINER_ELEMENT)
                .map(Path.Node::getName)
                .collect(Collectors.toList());
        if (!properties.isEmpty()) {
            return String.join(".", properties);
        }
        return nodes.isEmpty() ? "request" : nodes.get(nodes.size() - 1).getName();
    }
}
