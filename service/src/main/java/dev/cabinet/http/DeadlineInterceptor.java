package dev.cabinet.http;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.smallrye.mutiny.Uni;

/**
 * The one place every resource's answer passes through: the {@code Uni} a resource method returns is bounded by the
 * request's deadline ({@link RequestDeadline#bound}). Methods that answer at once (no {@code Uni}) pass unchanged.
 */
@Deadline
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class DeadlineInterceptor {

    @Inject
    RequestDeadline deadline;

    @AroundInvoke
    Object bound(InvocationContext invocation) throws Exception {
        Object answer = invocation.proceed();
        return answer instanceof Uni<?> uni ? deadline.bound(uni) : answer;
    }
}
