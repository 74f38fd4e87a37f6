package dev.cabinet.support;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import com.tngtech.archunit.core.domain.JavaClass;

/** Every REST endpoint of the application, found from its resource classes (the dev-only token endpoint aside). */
public final class Endpoints {

    private static final List<Class<? extends Annotation>> VERBS = List.of(GET.class, POST.class, PUT.class,
            PATCH.class, DELETE.class);

    /** One resource method: its verb, path template, query parameters and body type (null if it takes none). */
    public record Endpoint(String method, String path, List<String> queryParameters, Class<?> body) {

        public boolean isCommand() {
            return !method.equals("GET");
        }
    }

    private Endpoints() {
    }

    public static List<Endpoint> all() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (JavaClass type : ProductionClasses.all()) {
            if (!type.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> resource = ProductionClasses.load(type);
            String base = resource.getAnnotation(Path.class).value();
            if (base.startsWith("/dev")) {
                continue;
            }
            for (Method method : resource.getDeclaredMethods()) {
                String verb = VERBS.stream().filter(method::isAnnotationPresent).map(Class::getSimpleName).findFirst()
                        .orElse(null);
                if (verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String path = sub == null ? base : base.replaceAll("/$", "") + "/" + sub.value().replaceAll("^/", "");
                List<String> query = new ArrayList<>();
                Class<?> body = null;
                for (Parameter parameter : method.getParameters()) {
                    if (parameter.isAnnotationPresent(QueryParam.class)) {
                        query.add(parameter.getAnnotation(QueryParam.class).value());
                    } else if (!parameter.isAnnotationPresent(PathParam.class)
                            && !parameter.isAnnotationPresent(HeaderParam.class)
                            && !parameter.isAnnotationPresent(BeanParam.class)
                            && !parameter.getType().getName().startsWith("jakarta.ws.rs")) {
                        body = parameter.getType();
                    }
                }
                endpoints.add(new Endpoint(verb, path.replaceAll("/$", ""), query, body));
            }
        }
        return endpoints;
    }
}
