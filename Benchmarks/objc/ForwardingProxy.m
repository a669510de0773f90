// The Objective-C reference for Fanout's peers: a multiplexer proxy built on
// respondsToSelector:, methodSignatureForSelector: and forwardInvocation:, as
// the original MultiplexerProxyBehavior did, over an NSArray of targets.
// Written for this project; built with gcc's Objective-C and GNUstep Base.
//
// usage: forwarding-proxy <samples> <sample-time-ms> <width>...
// prints one CSV line per width: width,samples,iterations,median,p10,p90,min (ns per message),MAD/median

#import <Foundation/Foundation.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

@protocol ScrollViewDelegate
- (void)scrollViewDidScroll:(id)scrollView;
@end

@interface TallyTarget : NSObject <ScrollViewDelegate> {
@public
    long tally;
}
@end
@implementation TallyTarget
- (void)scrollViewDidScroll:(id)scrollView { tally++; }
@end

@interface OffsetTarget : NSObject <ScrollViewDelegate> {
@public
    long tally;
}
@end
@implementation OffsetTarget
- (void)scrollViewDidScroll:(id)scrollView { tally++; }
@end

@interface MultiplexerProxy : NSObject {
    NSArray *targets;
}
- (id)initWithTargets:(NSArray *)someTargets;
@end

@implementation MultiplexerProxy
- (id)initWithTargets:(NSArray *)someTargets {
    if ((self = [super init])) targets = [someTargets copy];
    return self;
}

- (void)dealloc {
    [targets release];
    [super dealloc];
}

- (BOOL)respondsToSelector:(SEL)selector {
    if ([super respondsToSelector:selector]) return YES;
    for (id target in targets)
        if ([target respondsToSelector:selector]) return YES;
    return NO;
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)selector {
    NSMethodSignature *signature = [super methodSignatureForSelector:selector];
    if (signature) return signature;
    for (id target in targets)
        if ([target respondsToSelector:selector]) return [target methodSignatureForSelector:selector];
    return nil;
}

- (void)forwardInvocation:(NSInvocation *)invocation {
    SEL selector = [invocation selector];
    for (id target in targets)
        if ([target respondsToSelector:selector]) [invocation invokeWithTarget:target];
}
@end

static unsigned long long now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (unsigned long long)time.tv_sec * 1000000000ull + (unsigned long long)time.tv_nsec;
}

static unsigned long long timeMessages(id<ScrollViewDelegate> proxy, id view, long iterations) {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    unsigned long long start = now();
    for (long i = 0; i < iterations; i++) [proxy scrollViewDidScroll:view];
    unsigned long long elapsed = now() - start;
    [pool drain];
    return elapsed;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *sorted, int count, double q) {
    double position = q * (count - 1);
    int lower = (int)position;
    int upper = lower + 1 < count ? lower + 1 : count - 1;
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s <samples> <sample-time-ms> <width>...\n", argv[0]);
        return 2;
    }
    int samples = atoi(argv[1]);
    double sampleTime = atof(argv[2]) * 1e6;
    if (samples < 1 || sampleTime <= 0) {
        fprintf(stderr, "samples and sample time must be positive\n");
        return 2;
    }
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    id view = [[NSObject alloc] init];
    for (int argument = 3; argument < argc; argument++) {
        int width = atoi(argv[argument]);
        if (width < 1) {
            fprintf(stderr, "width must be positive: %s\n", argv[argument]);
            return 2;
        }
        NSMutableArray *targets = [NSMutableArray array];
        for (int i = 0; i < width; i++) {
            id target = (i % 2 == 0) ? [[TallyTarget alloc] init] : [[OffsetTarget alloc] init];
            [targets addObject:target];
            [target release];
        }
        id<ScrollViewDelegate> proxy = (id<ScrollViewDelegate>)[[MultiplexerProxy alloc] initWithTargets:targets];
        // Warm up for 5 ms (the first message builds caches), then grow the iterations until a run lasts 100 µs, then aim for the sample time.
        unsigned long long warmUpEnd = now() + 5000000ull;
        while (now() < warmUpEnd) timeMessages(proxy, view, 1);
        long iterations = 1;
        unsigned long long elapsed = timeMessages(proxy, view, iterations);
        while (elapsed < 100000) {
            iterations *= 2;
            elapsed = timeMessages(proxy, view, iterations);
        }
        iterations = (long)(sampleTime / ((double)elapsed / iterations));
        if (iterations < 1) iterations = 1;
        double *perMessage = malloc(sizeof(double) * samples);
        for (int s = 0; s < samples; s++)
            perMessage[s] = (double)timeMessages(proxy, view, iterations) / iterations;
        qsort(perMessage, samples, sizeof(double), compare);
        double median = quantile(perMessage, samples, 0.5);
        double *deviations = malloc(sizeof(double) * samples);
        for (int s = 0; s < samples; s++) deviations[s] = fabs(perMessage[s] - median);
        qsort(deviations, samples, sizeof(double), compare);
        printf("%d,%d,%ld,%.4f,%.4f,%.4f,%.4f,%.6f\n", width, samples, iterations, median,
               quantile(perMessage, samples, 0.1), quantile(perMessage, samples, 0.9), perMessage[0],
               median > 0 ? quantile(deviations, samples, 0.5) / median : 0);
        free(deviations);
        fflush(stdout);
        free(perMessage);
        [(id)proxy release];
    }
    [view release];
    [pool drain];
    return 0;
}
