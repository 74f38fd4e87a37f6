package dev.cabinet.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Marks a REST resource whose methods answer by the request deadline ({@link DeadlineInterceptor}); every resource
 * with a method that returns a {@code Uni} carries it (ArchitectureTest checks that none is missed).
 */
@InterceptorBinding
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface Deadline {
}
